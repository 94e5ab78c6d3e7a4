import { Injectable } from '@nestjs/common';
import { OptionsService } from '../options/options.service';
import type { MediaPriceTables } from './media-prices';
import { QUOTA_TYPE_PER_CALL, QUOTA_TYPE_PER_TOKEN, type QuotaType } from './pricing.wire';

export interface ModelPricing {
  quota_type: QuotaType;
  /** Fixed USD per call when quota_type is 1. */
  model_price: number;
  /** USD per 1M input tokens / 2. */
  model_ratio: number;
  completion_ratio: number;
  cache_ratio: number;
  /** Prompt tokens written to the provider's cache, as a multiple of the input price. */
  create_cache_ratio: number;
  /** False when the model has neither a price nor a ratio set. */
  priced: boolean;
}

/** What an unpriced model costs when it is allowed at all (self-use mode, or a user who accepts it). */
export const UNPRICED_MODEL_RATIO = 37.5;

/** Reads model and group prices from the options (kept in memory there). */
@Injectable()
export class PricingService {
  constructor(private readonly options: OptionsService) {}

  modelPricing(model: string): ModelPricing {
    const prices = this.options.get('ModelPrice');
    const ratios = this.options.get('ModelRatio');
    const completion = this.options.get('CompletionRatio');
    const cache = this.options.get('CacheRatio');
    const completionRatio = completion[model] ?? 1;
    const cacheRatio = cache[model] ?? 1;
    const createCacheRatio = this.options.get('CreateCacheRatio')[model] ?? 1;
    if (model in prices) {
      return { quota_type: QUOTA_TYPE_PER_CALL, model_price: prices[model], model_ratio: 0, completion_ratio: completionRatio, cache_ratio: cacheRatio, create_cache_ratio: createCacheRatio, priced: true };
    }
    if (model in ratios) {
      return { quota_type: QUOTA_TYPE_PER_TOKEN, model_price: -1, model_ratio: ratios[model], completion_ratio: completionRatio, cache_ratio: cacheRatio, create_cache_ratio: createCacheRatio, priced: true };
    }
    return { quota_type: QUOTA_TYPE_PER_TOKEN, model_price: -1, model_ratio: UNPRICED_MODEL_RATIO, completion_ratio: completionRatio, cache_ratio: cacheRatio, create_cache_ratio: createCacheRatio, priced: false };
  }

  /** A Realtime model's audio prices (AudioRatio, AudioCompletionRatio); read per Realtime response, never on the HTTP path. */
  audioRatios(model: string, completionRatio: number): { audioRatio: number; audioCompletionRatio: number } {
    return { audioRatio: this.options.get('AudioRatio')[model] ?? 1, audioCompletionRatio: this.options.get('AudioCompletionRatio')[model] ?? completionRatio };
  }

  /** The ratio of the group a request runs in; GroupGroupRatio overrides it for the user's own group. */
  groupRatio(userGroup: string, usingGroup: string): { ratio: number; userGroupRatio: number | null } {
    const special = this.options.get('GroupGroupRatio')[userGroup]?.[usingGroup];
    if (special !== undefined) return { ratio: special, userGroupRatio: special };
    return { ratio: this.options.get('GroupRatio')[usingGroup] ?? 1, userGroupRatio: null };
  }

  /** The four media price tables (ImagePrices, AudioPrices, VideoPrices, TaskActionPrices). */
  mediaPriceTables(): MediaPriceTables {
    return {
      ImagePrices: this.options.get('ImagePrices'),
      AudioPrices: this.options.get('AudioPrices'),
      VideoPrices: this.options.get('VideoPrices'),
      TaskActionPrices: this.options.get('TaskActionPrices'),
    };
  }

  quotaPerUnit(): number {
    return this.options.get('QuotaPerUnit');
  }
}
