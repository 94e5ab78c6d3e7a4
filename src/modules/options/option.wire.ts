import type { OptionKey } from './option-definitions';
export type { OptionKey } from './option-definitions';

/** One row of GET /api/option/. */
export interface OptionView {
  key: OptionKey;
  value: string;
  /** Present on secret options, whose value is never sent back. */
  is_set?: boolean;
}

/** Body of PUT /api/option/. */
export interface OptionUpdate {
  key: OptionKey;
  value: string | number | boolean;
}
