/** LEI codes (ISO 17442): 18 alphanumerics then two check digits, valid when the whole code mod 97 is 1 (ISO 7064). */

function mod97(code: string): number {
  let rest = 0;
  for (const ch of code) {
    const digits = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest;
}

export function isValidLei(code: string): boolean {
  return /^[0-9A-Z]{18}[0-9]{2}$/.test(code) && mod97(code) === 1;
}

/** Completes an 18-character prefix with its check digits. */
export function leiWithCheckDigits(prefix: string): string {
  const check = 98 - mod97(`${prefix}00`);
  return `${prefix}${String(check).padStart(2, '0')}`;
}
