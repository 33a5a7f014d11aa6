// The public face of the users module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { staffUserListQuery } from './users.query';
export { userRoutes } from './users.routes';
export * as usersService from './users.service';
export { USER_UNIQUE_FIELDS, createUser, findUserByEmail, getUserRow, newUserRow, toUser } from './users.service';
