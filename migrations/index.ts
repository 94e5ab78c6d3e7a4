import { AccountsAndOptions1732233600000 } from './1732233600000-accounts-and-options';

/** Every migration, oldest first. Add new ones at the end. */
export const MIGRATIONS = [AccountsAndOptions1732233600000];
