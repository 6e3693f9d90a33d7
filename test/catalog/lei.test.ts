import { bodies, checkLei, leiWithCheckDigits } from '../../src/catalog';

describe('LEI codes (ISO 17442)', () => {
  it('accepts published LEIs', () => {
    for (const lei of ['5493001KJTIIGC8Y1R12', '7LTWFZYICNSX8D621K86', 'HWUPKR0MPOU8FGXBT394'])
      expect(checkLei(lei)).toEqual({ ok: true });
  });

  it('refuses a wrong check digit, a wrong length and lower-case or odd characters, each with its code', () => {
    expect(checkLei('5493001KJTIIGC8Y1R13')).toMatchObject({ ok: false, code: 'lei-check-digits' });
    expect(checkLei('5493001KJTIIGC8Y1R1')).toMatchObject({ ok: false, code: 'lei-length' });
    expect(checkLei('5493001kjtiigc8y1r12')).toMatchObject({ ok: false, code: 'lei-characters' });
    expect(checkLei('5493001KJTIIGC8Y1RAB')).toMatchObject({ ok: false, code: 'lei-characters' });
  });

  it('completes a prefix with the check digits of a published LEI, and every completed code checks', () => {
    expect(leiWithCheckDigits('5493001KJTIIGC8Y1R')).toBe('5493001KJTIIGC8Y1R12');
    expect(leiWithCheckDigits('HWUPKR0MPOU8FGXBT3')).toBe('HWUPKR0MPOU8FGXBT394');
    for (const prefix of ['000000000000000000', 'ZZZZZZZZZZZZZZZZZZ', '529900T8BM49AURSDO'])
      expect(checkLei(leiWithCheckDigits(prefix))).toEqual({ ok: true });
  });

  it("the third party create body refuses an invalid LEI with checkLei's message, and takes a valid, empty or absent one", () => {
    const result = bodies.createThirdParty.safeParse({ Name: 'Acme', LeiCode: '5493001KJTIIGC8Y1R13' });
    expect(result.success).toBe(false);
    expect(result.error!.issues).toMatchObject([
      { path: ['LeiCode'], message: (checkLei('5493001KJTIIGC8Y1R13') as { message: string }).message },
    ]);
    for (const body of [
      { Name: 'Acme', LeiCode: '5493001KJTIIGC8Y1R12' },
      { Name: 'Acme', LeiCode: '' },
      { Name: 'Acme' },
    ])
      expect(bodies.createThirdParty.safeParse(body).success).toBe(true);
  });
});
