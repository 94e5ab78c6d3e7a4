import type { OptionsService } from '../options/options.service';

/** The token group that routes through AutoGroups instead of one group of its own (new-api's `auto`). */
export const AUTO_GROUP = 'auto';

/**
 * Whether a user in `userGroup` may send calls through `group`: their own group, one of
 * UserUsableGroups, or `auto` while automatic group selection is on. The one rule for token
 * edits, API keys at call time and the playground.
 */
export function mayUseGroup(options: OptionsService, userGroup: string, group: string): boolean {
  return group === userGroup || Object.hasOwn(options.get('UserUsableGroups'), group) || (group === AUTO_GROUP && options.get('DefaultUseAutoGroup'));
}

/** Groups a user may route through, with their descriptions: UserUsableGroups plus the user's own group. */
export function usableGroups(options: OptionsService, userGroup: string): Record<string, string> {
  const groups = { ...options.get('UserUsableGroups') };
  if (userGroup && !(userGroup in groups)) groups[userGroup] = userGroup;
  return groups;
}
