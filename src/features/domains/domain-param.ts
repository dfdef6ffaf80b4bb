/** Resolves `?domain=` for a workspace: the domain's id, or 317 for one it does not see. */
export type AddressedDomain = (workspaceId: number, host: string | undefined) => number;
