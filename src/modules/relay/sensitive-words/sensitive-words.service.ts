import { Injectable } from '@nestjs/common';
import type { OptionKey } from '../../options/option-definitions';
import { OptionsService } from '../../options/options.service';
import type { JsonObject } from '../wire/wire-format';
import type { RelayEndpoint } from '../relay-endpoints';
import { RelayError } from '../relay-error';
import { somePromptText } from './prompt-texts';
import { WordMatcher } from './word-matcher';

const SETTINGS: ReadonlySet<OptionKey> = new Set(['CheckSensitiveEnabled', 'CheckSensitiveOnPromptEnabled', 'SensitiveWords']);

/**
 * The prompt check against SensitiveWords (CheckSensitiveEnabled and
 * CheckSensitiveOnPromptEnabled both on). The matcher is built when a setting changes, on
 * every instance; a request reads one boolean when the check is off.
 */
@Injectable()
export class SensitiveWordsService {
  private matcher = WordMatcher.EMPTY;
  private builtFrom?: readonly string[];
  /** Whether prompts are checked at all: both switches on and at least one word. */
  active = false;

  constructor(private readonly options: OptionsService) {
    this.rebuild();
    options.onChange((key) => {
      if (SETTINGS.has(key)) this.rebuild();
    });
  }

  /** Refuses (400, naming no word) a prompt that contains a sensitive word. */
  checkPrompt(endpoint: RelayEndpoint, body: JsonObject): void {
    if (promptHasWord(this.matcher, endpoint, body)) throw refusal();
  }

  /** The same for the prompt fields of task submissions (Midjourney, Suno). */
  checkTexts(texts: readonly unknown[]): void {
    if (texts.some((text) => typeof text === 'string' && this.matcher.contains(text))) throw refusal();
  }

  private rebuild(): void {
    const checking = this.options.get('CheckSensitiveEnabled') && this.options.get('CheckSensitiveOnPromptEnabled');
    const words = this.options.get('SensitiveWords');
    // The options service hands out a new list only when the setting changed: a switch flipped keeps the matcher.
    if (checking && words !== this.builtFrom) {
      this.matcher = WordMatcher.build(words);
      this.builtFrom = words;
    }
    this.active = checking && !this.matcher.empty;
  }
}

/** Whether any text of the prompt contains a word (exported for the bench). */
export function promptHasWord(matcher: WordMatcher, endpoint: RelayEndpoint, body: JsonObject): boolean {
  return somePromptText(endpoint, body, (text) => matcher.contains(text));
}

function refusal(): RelayError {
  return new RelayError('sensitive_words_detected', 'The request was refused: its prompt contains words this service does not accept', 400);
}
