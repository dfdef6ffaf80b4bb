import type { Role } from '../authorization.ts';
import type {
  Account,
  Invitation,
  Member,
  MembershipOf,
  NewInvitation,
  Plan,
  PlanSettings,
  User,
  Workspace,
} from '../entities.ts';

/**
 * The store's ports for people: plans, users and their workspaces, members, invitations and mailed
 * links. Both adapters implement them once, in adapters/sql/people-store.ts (plans per adapter).
 */

export type CreateAccountResult = { kind: 'created'; account: Account } | { kind: 'email-taken' };
export type CreateWorkspaceResult = { kind: 'created'; workspace: Workspace } | { kind: 'slug-taken' };
/** A change of members: 'last-owner' when it would leave the workspace without an owner (nothing changes). */
export type MemberChange = 'done' | 'not-found' | 'last-owner';

/** A person's two-factor sign-in as stored (docs/api.md §22): the sealed secret, the last step taken. */
export interface StoredTwoFactor {
  sealedSecret: string;
  lastStep: number | null;
}

/** Two-factor sign-in: a sealed TOTP secret and ten recovery codes known by their SHA-256. */
export interface TwoFactorStore {
  twoFactorOf(userId: number): Promise<StoredTwoFactor | undefined>;
  /** On, with the step of the code that proved the secret; the recovery codes replace any left. */
  enableTwoFactor(userId: number, sealedSecret: string, step: number, codeHashes: string[]): Promise<void>;
  /** Off: the secret and every recovery code gone. Whether it was on. */
  disableTwoFactor(userId: number): Promise<boolean>;
  /** Takes a time step while no equal or later one was taken (one use per code, across a fleet). */
  takeTotpStep(userId: number, step: number): Promise<boolean>;
  /** Uses a recovery code once: whether it was there unused. */
  takeRecoveryCode(userId: number, codeHash: string, at: number): Promise<boolean>;
  recoveryCodesLeft(userId: number): Promise<number>;
}

export type EmailChangeResult =
  | { kind: 'changed'; userId: number; oldEmail: string; newEmail: string }
  | { kind: 'gone' }
  | { kind: 'email-taken' };

/** Changes of email waiting for the link mailed to the new address, known by the token's SHA-256. */
export interface EmailChangeStore {
  createEmailChange(tokenHash: Buffer, userId: number, newEmail: string, expiresAt: Date): Promise<void>;
  emailChangeLive(tokenHash: Buffer, now: Date): Promise<boolean>;
  /**
   * Uses the link once and moves its user to the new email, confirmed, in one transaction; every other
   * change of theirs still waiting ends with it. Nothing changes while another user has that email.
   */
  takeEmailChange(tokenHash: Buffer, now: Date): Promise<EmailChangeResult>;
}

/** Plans, and the users and workspaces on them. */
export interface AccountStore extends TwoFactorStore, EmailChangeStore {
  /** Creates the plan, or updates the plan of that name. */
  upsertPlan(plan: PlanSettings): Promise<Plan>;
  findPlanByName(name: string): Promise<Plan | undefined>;
  listPlans(): Promise<Plan[]>;
  /** Inserts the default plans only when no plan exists at all. */
  ensureDefaultPlans(plans: readonly PlanSettings[]): Promise<void>;
  /** A user and their personal workspace on the plan, the user its owner, in one transaction. */
  createAccount(
    email: string,
    planId: number,
    passwordHash: string | null,
    verified?: boolean,
  ): Promise<CreateAccountResult>;
  /** The user of that email with their personal workspace. */
  findAccountByEmail(email: string): Promise<Account | undefined>;
  /** Every user with their personal workspace, oldest first (the operator's list). */
  listAccounts(): Promise<Account[]>;
  findUserById(id: number): Promise<User | undefined>;
  findUserByEmail(email: string): Promise<User | undefined>;
  /**
   * A new password; every reset link and change of email of the user still outstanding ends with it,
   * in one transaction.
   */
  setPasswordHash(userId: number, passwordHash: string): Promise<void>;
  setEmailVerified(userId: number): Promise<void>;
  setLastWorkspace(userId: number, workspaceId: number): Promise<void>;
  /** The user an OIDC issuer knows by this subject. */
  findUserByIdentity(issuer: string, subject: string): Promise<User | undefined>;
  /** Links an OIDC identity to a user (a second link of the same identity changes nothing). */
  linkIdentity(userId: number, issuer: string, subject: string): Promise<void>;
}

/** Workspaces and the people in them, with their roles. */
export interface WorkspaceStore {
  /** A team workspace with its first owner, in one transaction. */
  createWorkspace(
    slug: string,
    name: string,
    planId: number,
    ownerId: number,
  ): Promise<CreateWorkspaceResult>;
  findWorkspaceById(id: number): Promise<Workspace | undefined>;
  findWorkspaceBySlug(slug: string): Promise<Workspace | undefined>;
  /** Every workspace, oldest first (the operator's list). */
  listWorkspaces(): Promise<Workspace[]>;
  setWorkspacePlan(workspaceId: number, planId: number): Promise<void>;
  renameWorkspace(workspaceId: number, name: string): Promise<void>;
  /** Sets the workspace's time zone, an IANA name the caller has checked (core/time-zone.ts). */
  setWorkspaceTimezone(workspaceId: number, timezone: string): Promise<void>;
  /** The workspaces the user belongs to, personal first, then by name. */
  workspacesOf(userId: number): Promise<MembershipOf[]>;
  roleOf(workspaceId: number, userId: number): Promise<Role | undefined>;
  /** Members, owners first, then by email. */
  listMembers(workspaceId: number): Promise<Member[]>;
  /** Adds the user, or changes nothing and answers false when they are a member already. */
  addMember(workspaceId: number, userId: number, role: Role): Promise<boolean>;
  /**
   * Changes a member's role; an owner is demoted only while another owner remains. In the same
   * transaction, the pending invitations they made there that the new role could not make are revoked.
   */
  changeRole(workspaceId: number, userId: number, role: Role): Promise<MemberChange>;
  /**
   * Removes a member and revokes the keys and the pending invitations they made there, in one
   * transaction; never the last owner.
   */
  removeMember(workspaceId: number, userId: number): Promise<MemberChange>;
}

export type AcceptInvitationResult =
  | { kind: 'accepted'; workspaceId: number; role: Role }
  | { kind: 'gone' }
  | { kind: 'wrong-email' };

/** Invitations to a workspace: single-use links, known here only by their token's SHA-256. */
export interface InvitationStore {
  /** A new invitation; a pending one for the same email in the workspace is revoked by it. */
  createInvitation(invitation: NewInvitation): Promise<Invitation>;
  /** Pending (neither accepted, revoked nor expired at `now`), newest first. */
  listInvitations(workspaceId: number, now: Date): Promise<Invitation[]>;
  findInvitationByHash(tokenHash: Buffer): Promise<Invitation | undefined>;
  revokeInvitation(workspaceId: number, id: number): Promise<boolean>;
  /**
   * Takes a pending invitation for the user in one transaction: only once, only before it expires,
   * only for the email it was made for, and only while its maker (unless the operator) may still
   * give its role there, else it is revoked as gone; the user becomes a member (a member already
   * keeps the higher role).
   */
  acceptInvitation(
    tokenHash: Buffer,
    user: Pick<User, 'id' | 'email'>,
    now: Date,
  ): Promise<AcceptInvitationResult>;
}

export type TokenPurpose = 'reset' | 'verify';

/** Single-use links mailed to a user, known here only by their SHA-256. */
export interface UserTokenStore {
  createUserToken(tokenHash: Buffer, userId: number, purpose: TokenPurpose, expiresAt: Date): Promise<void>;
  /** Whether the token is still unused and unexpired at `now` (a page shows its form only then). */
  userTokenLive(tokenHash: Buffer, purpose: TokenPurpose, now: Date): Promise<boolean>;
  /**
   * Uses the token once: its user while it is unused and unexpired at `now`, then never again; every
   * other link of that purpose of the user ends with it, in the same transaction.
   */
  takeUserToken(tokenHash: Buffer, purpose: TokenPurpose, now: Date): Promise<number | undefined>;
}
