import { Injectable } from '@nestjs/common';
import { OptionsService } from '../../../options/options.service';

/** The harm categories Gemini accepts safety settings for. */
const HARM_CATEGORIES = ['HARM_CATEGORY_HARASSMENT', 'HARM_CATEGORY_HATE_SPEECH', 'HARM_CATEGORY_SEXUALLY_EXPLICIT', 'HARM_CATEGORY_DANGEROUS_CONTENT', 'HARM_CATEGORY_CIVIC_INTEGRITY'];

/** The gemini.* settings, typed, for every channel that speaks Gemini's format. */
@Injectable()
export class GeminiSettings {
  constructor(private readonly options: OptionsService) {}

  /** One threshold per harm category: the category's own entry, else `default`. */
  safetySettings(): Array<{ category: string; threshold: string }> {
    const table = this.options.get('gemini.safety_settings');
    return HARM_CATEGORIES.map((category) => ({ category, threshold: table[category] ?? table.default ?? 'BLOCK_NONE' }));
  }

  /** The API version for a model (v1beta unless set). */
  apiVersion(model: string): string {
    const table = this.options.get('gemini.version_settings');
    return table[model] ?? table.default ?? 'v1beta';
  }
}
