/** The platform name of Midjourney tasks in TaskActionPrices. */
export const MIDJOURNEY_PLATFORM = 'midjourney';

/** Midjourney task actions, as Midjourney-Proxy names them. */
export const MJ_ACTIONS = [
  'IMAGINE', 'UPSCALE', 'VARIATION', 'HIGH_VARIATION', 'LOW_VARIATION', 'PAN', 'DESCRIBE', 'BLEND', 'UPLOAD',
  'SHORTEN', 'REROLL', 'INPAINT', 'ZOOM', 'CUSTOM_ZOOM', 'MODAL', 'SWAP_FACE',
] as const;
export type MjAction = (typeof MJ_ACTIONS)[number];

/** Submit result codes that mean the upstream took the task (submitted, waiting in queue, duplicate). */
export const MJ_ACCEPTED_CODES = new Set([1, 21, 22]);
/** The code Midjourney-Proxy answers when the channel's account is unusable: the channel is disabled. */
export const MJ_CODE_ACCOUNT_BROKEN = 3;

/** Statuses after which nothing changes any more. */
export const MJ_FINISHED_STATUSES = ['SUCCESS', 'FAILURE'];

/** The submit paths and, for those with one fixed action, that action. */
export const MJ_SUBMIT_ACTIONS: Record<string, MjAction | undefined> = {
  imagine: 'IMAGINE',
  describe: 'DESCRIBE',
  blend: 'BLEND',
  shorten: 'SHORTEN',
  'upload-discord-images': 'UPLOAD',
  modal: 'MODAL',
  // The action of these comes from the body.
  change: undefined,
  'simple-change': undefined,
  action: undefined,
};

/** The price's model name of an action: mj_imagine, mj_high_variation, swap_face. */
export function modelForAction(action: MjAction): string {
  return action === 'SWAP_FACE' ? 'swap_face' : `mj_${action.toLowerCase()}`;
}

/** Button custom ids of Midjourney-Proxy Plus, most specific first. */
const CUSTOM_ID_ACTIONS: [string, MjAction][] = [
  ['MJ::JOB::upsample', 'UPSCALE'],
  ['MJ::JOB::high_variation', 'HIGH_VARIATION'],
  ['MJ::JOB::low_variation', 'LOW_VARIATION'],
  ['MJ::JOB::variation', 'VARIATION'],
  ['MJ::JOB::reroll', 'REROLL'],
  ['MJ::JOB::pan_', 'PAN'],
  ['MJ::Inpaint', 'INPAINT'],
  ['MJ::CustomZoom', 'CUSTOM_ZOOM'],
  ['MJ::Outpaint', 'ZOOM'],
];

export function actionOfCustomId(customId: string): MjAction | undefined {
  return CUSTOM_ID_ACTIONS.find(([prefix]) => customId.startsWith(prefix))?.[1];
}

const CHANGE_LETTERS: Record<string, MjAction> = { U: 'UPSCALE', V: 'VARIATION', R: 'REROLL' };

/** `/submit/simple-change` content: "<taskId> U1", "<taskId> V3" or "<taskId> R". */
export function parseSimpleChange(content: string): { taskId: string; action: MjAction; index?: number } | undefined {
  const match = /^\s*(\S+)\s+([UVR])([1-4])?\s*$/i.exec(content);
  if (!match) return undefined;
  const action = CHANGE_LETTERS[match[2].toUpperCase()];
  if (action !== 'REROLL' && !match[3]) return undefined;
  return { taskId: match[1], action, index: match[3] ? Number(match[3]) : undefined };
}

export function isMjAction(value: unknown): value is MjAction {
  return typeof value === 'string' && (MJ_ACTIONS as readonly string[]).includes(value);
}

const MODE_FLAGS = /\s*--(fast|relax|turbo)\b/gi;

/** MjModeClearEnabled: the speed is the gateway's to choose (by route), not the prompt's. */
export function clearModeFlags(prompt: string): string {
  return prompt.replace(MODE_FLAGS, '').trim();
}
