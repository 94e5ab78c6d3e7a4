import { Injectable } from '@nestjs/common';
import { AbilitiesRepository } from '../channels/abilities.repository';
import { ModelMetaService } from '../models/model-meta.service';
import { EMPTY_PUBLIC_MODEL_META } from '../models/model-meta.view';
import { OptionsService } from '../options/options.service';
import { usableGroups } from '../users/usable-groups';
import { mediaPricesOf } from './media-prices';
import { PricingService } from './pricing.service';
import { PricingPage, PricingRow } from './pricing.wire';

/** The public pricing page: every model some enabled channel serves, with its price and groups. */
@Injectable()
export class PricingPageService {
  constructor(
    private readonly pricing: PricingService,
    private readonly abilities: AbilitiesRepository,
    private readonly options: OptionsService,
    private readonly modelMeta: ModelMetaService,
  ) {}

  async build(viewerGroup: string | undefined): Promise<PricingPage> {
    const groupsByModel = await this.abilities.enabledGroupsByModel();
    const tables = this.pricing.mediaPriceTables();
    const catalogue = await this.modelMeta.publicCatalogue([...groupsByModel.keys()]);
    const models = [...groupsByModel.entries()].map(([model, groups]): PricingRow => {
      const price = this.pricing.modelPricing(model);
      const media = mediaPricesOf(model, tables);
      return {
        ...(catalogue.metaFor(model) ?? EMPTY_PUBLIC_MODEL_META),
        model_name: model,
        quota_type: price.quota_type,
        model_ratio: price.model_ratio,
        completion_ratio: price.completion_ratio,
        model_price: price.model_price,
        enable_groups: groups,
        price_set: price.priced || media !== undefined,
        ...(media ? { media_prices: media } : {}),
      };
    });
    const usable = usableGroups(this.options, viewerGroup ?? '');
    const groupRatio: Record<string, number> = {};
    for (const group of Object.keys(this.options.get('GroupRatio'))) {
      if (group in usable) groupRatio[group] = this.pricing.groupRatio(viewerGroup ?? '', group).ratio;
    }
    return { models, group_ratio: groupRatio, usable_group: usable, vendors: catalogue.vendors };
  }
}
