import { checkLei } from '../../src/writeback/lei';

describe('LEI codes (ISO 17442)', () => {
  it('accepts published LEIs', () => {
    for (const lei of ['5493001KJTIIGC8Y1R12', '7LTWFZYICNSX8D621K86', 'HWUPKR0MPOU8FGXBT394'])
      expect(checkLei(lei)).toEqual({ ok: true });
  });

  it('refuses a wrong check digit, a wrong length and lower-case or odd characters', () => {
    expect(checkLei('5493001KJTIIGC8Y1R13')).toMatchObject({ ok: false, code: 'lei-check-digits' });
    expect(checkLei('5493001KJTIIGC8Y1R1')).toMatchObject({ ok: false, code: 'lei-length' });
    expect(checkLei('5493001kjtiigc8y1r12')).toMatchObject({ ok: false, code: 'lei-characters' });
    expect(checkLei('5493001KJTIIGC8Y1RAB')).toMatchObject({ ok: false, code: 'lei-characters' });
  });
});
