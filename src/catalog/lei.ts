/**
 * ISO 17442 Legal Entity Identifier: 18 upper-case letters or digits, then two check digits such that
 * the whole code, letters read as numbers (A = 10 ... Z = 35), is 1 modulo 97 (ISO 7064 MOD 97-10).
 * The one implementation: the catalog's third party body, the write-back and the sandbox all check with it.
 */
export type LeiCheck =
  { ok: true } | { ok: false; code: 'lei-length' | 'lei-characters' | 'lei-check-digits'; message: string };

export function checkLei(lei: string): LeiCheck {
  if (lei.length !== 20)
    return {
      ok: false,
      code: 'lei-length',
      message: `an LEI code has 20 characters, "${lei}" has ${lei.length}`,
    };
  if (!/^[A-Z0-9]{18}[0-9]{2}$/.test(lei)) {
    return {
      ok: false,
      code: 'lei-characters',
      message: `an LEI code is 18 capital letters or digits followed by 2 digits; check "${lei}"`,
    };
  }
  if (mod97(lei) !== 1)
    return {
      ok: false,
      code: 'lei-check-digits',
      message: `the check digits of LEI code "${lei}" are wrong; check it for a typing error`,
    };
  return { ok: true };
}

/** Completes an 18-character prefix (capital letters or digits) with its check digits. */
export function leiWithCheckDigits(prefix: string): string {
  const check = 98 - mod97(`${prefix}00`);
  return `${prefix}${String(check).padStart(2, '0')}`;
}

function mod97(code: string): number {
  let rest = 0;
  for (const ch of code) {
    const v = ch >= 'A' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    rest = (rest * (v >= 10 ? 100 : 10) + v) % 97;
  }
  return rest;
}
