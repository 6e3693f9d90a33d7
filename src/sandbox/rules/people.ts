import { USERS } from '../data/standing';
import type { Problem } from '../errors';

/** Checks names given for roles: known users who are not deleted (deleted users only keep old roles). */
export function checkPeople(field: string, names: readonly string[] | undefined, problems: Problem[]): void {
  (names ?? []).forEach((name, i) => {
    const user = USERS.find((u) => u.name === name);
    if (!user) problems.push({ field: `${field}[${i}]`, message: `No user named "${name}".` });
    else if (user.deleted)
      problems.push({
        field: `${field}[${i}]`,
        message: `User "${name}" is deleted and cannot be given a new role.`,
      });
  });
}

/** A role holder as the key owner: names compare without the asterisk of deleted users. */
export const sameUser = (a: unknown, b: string) => typeof a === 'string' && a.replace(/\*$/, '') === b;
