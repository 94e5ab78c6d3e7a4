import { dropTemplates } from './template-database';

export default async function globalTeardown(): Promise<void> {
  await dropTemplates();
}
