export { Allow, RIGHT_EXTENSION } from './Allow.ts';
export { Keyring, generateApiKey, keyFingerprint, parseApiKeys } from '../../access/apiKeys.ts';
export type { ApiKeyEntry, AuthFailure, Authentication, Principal } from '../../access/apiKeys.ts';
export { assertEveryRootFieldHasRight, listRootFieldRules } from './assertEveryRootFieldHasRight.ts';
export type { RootFieldRule } from './assertEveryRootFieldHasRight.ts';
export { authChecker } from './authChecker.ts';
export { RIGHTS, ROLES, Rights, isRole, isRight, roleHasRight, roleMaySubscribe } from '../../access/roles.ts';
export type { Right, Role } from '../../access/roles.ts';
