import { createTemplates } from './template-database';

/** Jest's global setup: the migrated template databases of the server suites (template-database.ts). */
export default async function globalSetup(): Promise<void> {
  await createTemplates();
}
