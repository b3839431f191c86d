export { Allow, RIGHT_EXTENSION } from './Allow.ts';
export { Keyring, generateApiKey, keyFingerprint, parseApiKeys } from './apiKeys.ts';
export type { ApiKeyEntry, AuthFailure, Authentication, Principal } from './apiKeys.ts';
export { assertEveryRootFieldHasRight, listRootFieldRules } from './assertEveryRootFieldHasRight.ts';
export type { RootFieldRule } from './assertEveryRootFieldHasRight.ts';
export { authChecker } from './authChecker.ts';
export { RIGHTS, ROLES, Rights, isRole, isRight, roleHasRight, roleMaySubscribe } from './roles.ts';
export type { Right, Role } from './roles.ts';
