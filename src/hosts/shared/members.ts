// src/hosts/shared/members.ts
// An `in` set's members as the hosts print them: the case variants a host without case-insensitive matching
// precomputes, and the chunks that keep one alternation under a host's line or token length.

const upper = (s: string): string => s.replace(/[a-z]+/g, (m) => m.toUpperCase());
const capitalized = (s: string): string => s.replace(/[a-z]/, (c) => c.toUpperCase());

/** The spellings a host without case-insensitive matching precomputes for a lower-case member: as is, UPPER, Capitalized. */
export function commonCaseVariants(member: string): string[] {
  return [...new Set([member, upper(member), capitalized(member)])];
}

/** Splits members so that no alternation is longer than MAX_SET_CHARS. */
export function chunkMembers(members: readonly string[], max: number): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const m of members) {
    if (current.length > 0 && size + m.length + 1 > max) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(m);
    size += m.length + 1;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
