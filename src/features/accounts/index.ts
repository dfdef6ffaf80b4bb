/**
 * People and their keys: sign-up and sign-in, Account Settings, API access (the main key and
 * further keys with scopes), keys' last use, GET /api/v1/account, and `snip plan|account|key …`.
 */
export { AccountSchema, accountApiRoutes } from './api/account-route.ts';
export { apiAccess } from './api-access.ts';
export { ACCOUNT_COMMANDS, ACCOUNT_FLAGS } from './cli/account-commands.ts';
export { accountOperations, accountWithEmail } from './cli/account-operations.ts';
export { KeyUses } from './key-uses.ts';
export { accountPages } from './pages/account-pages.ts';
export { signInService } from './sign-in.ts';
