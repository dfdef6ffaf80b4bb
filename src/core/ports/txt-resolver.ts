/**
 * Looks up the TXT records of a name (node:dns/promises resolveTxt's shape: each record as the strings
 * DNS split it into). Domains are verified through it; tests inject theirs and never query real DNS.
 */
export type TxtResolver = (name: string) => Promise<string[][]>;
