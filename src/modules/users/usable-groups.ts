import type { OptionsService } from '../options/options.service';

/** Groups a user may route through, with their descriptions: UserUsableGroups plus the user's own group. */
export function usableGroups(options: OptionsService, userGroup: string): Record<string, string> {
  const groups = { ...options.get('UserUsableGroups') };
  if (userGroup && !(userGroup in groups)) groups[userGroup] = userGroup;
  return groups;
}
