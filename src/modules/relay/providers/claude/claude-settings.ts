import { Injectable } from '@nestjs/common';
import { acceptsAnthropicBeta } from '../../../channels/channel-types';
import { OptionsService } from '../../../options/options.service';
import type { JsonObject } from '../../wire/wire-format';
import { addThinkingBudget, type ClaudeRequestOptions, THINKING_SUFFIX } from './claude-messages';

/** The body field (a top-level field, or one inside it) each beta enables: Claude Code sends `output_config.effort` with the effort beta. */
const BETA_BODY_FIELDS: Readonly<Record<string, readonly [string, string?]>> = {
  'effort-2025-11-24': ['output_config', 'effort'],
  'context-management-2025-06-27': ['context_management'],
};

/** The names of a client's anthropic-beta header (comma-separated). */
function clientBetaNames(header: unknown): string[] {
  return typeof header === 'string' ? header.split(',').map((name) => name.trim()).filter(Boolean) : [];
}

/** The claude.* settings, typed, for every channel that speaks Claude's format. */
@Injectable()
export class ClaudeSettings {
  constructor(private readonly options: OptionsService) {}

  /** max_tokens for a request that names none: the model's own entry, else `default`. */
  defaultMaxTokens(model: string): number {
    const table = this.options.get('claude.default_max_tokens');
    return table[model] ?? table.default ?? 8192;
  }

  /** The share of max_tokens a `-thinking` model may think with, or undefined when the adapter is off. */
  thinkingBudgetShare(): number | undefined {
    return this.options.get('claude.thinking_adapter_enabled') ? this.options.get('claude.thinking_adapter_budget_tokens_percentage') : undefined;
  }

  /** The thinking adapter's share for a model that asks for it with the `-thinking` suffix, else undefined. */
  thinkingShareFor(model: string): number | undefined {
    return model.endsWith(THINKING_SUFFIX) ? this.thinkingBudgetShare() : undefined;
  }

  /** The model Claude knows: without the suffix that asked the thinking adapter for a budget. */
  claudeModel(model: string): string {
    return this.thinkingShareFor(model) === undefined ? model : model.slice(0, -THINKING_SUFFIX.length);
  }

  /** What claudeRequestFromOpenAI needs to convert a body for the upstream model. */
  requestOptions(model: string): ClaudeRequestOptions {
    return { model, defaultMaxTokens: this.defaultMaxTokens(this.claudeModel(model)), thinkingBudgetShare: this.thinkingBudgetShare() };
  }

  /** A Claude-format body for the upstream model: max_tokens when missing, and the thinking adapter's budget for a `-thinking` model. */
  fitClientBody(body: JsonObject, model: string): void {
    if (typeof body.max_tokens !== 'number') body.max_tokens = this.defaultMaxTokens(this.claudeModel(model));
    const share = this.thinkingShareFor(model);
    if (share !== undefined) addThinkingBudget(body, share);
  }

  /**
   * The anthropic-beta names of a request to a channel type's host, each once: the model's
   * (model_headers_settings, as the operator set them for that host) and those of the client's
   * own header that the host accepts (the catalogue's `acceptedAnthropicBetas`), as new-api adds
   * the setting's values to the client's.
   */
  betas(model: string, clientBeta: unknown, channelType: number): string[] {
    const configured = Object.entries(this.options.get('claude.model_headers_settings')[model] ?? {}).flatMap(([name, values]) => (name.toLowerCase() === 'anthropic-beta' ? values : []));
    const client = clientBetaNames(clientBeta).filter((name) => acceptsAnthropicBeta(channelType, name));
    return [...new Set([...configured.map((name) => name.trim()), ...client].filter(Boolean))];
  }

  /**
   * A Claude body fitted to a host that dropped some of the client's betas: the fields those
   * betas enable go too (`BETA_BODY_FIELDS`), since the host refuses them without their beta.
   */
  dropFieldsOfRefusedBetas(body: JsonObject, clientBeta: unknown, channelType: number): void {
    for (const name of clientBetaNames(clientBeta)) {
      const field = BETA_BODY_FIELDS[name];
      if (!field || acceptsAnthropicBeta(channelType, name)) continue;
      const [parent, child] = field;
      const holder = body[parent];
      if (child === undefined) delete body[parent];
      else if (typeof holder === 'object' && holder !== null && !Array.isArray(holder)) {
        const { [child]: _dropped, ...rest } = holder as JsonObject;
        if (Object.keys(rest).length > 0) body[parent] = rest;
        else delete body[parent];
      }
    }
  }

  /** Extra headers for a model (anthropic-beta and the like), each list joined with commas. */
  modelHeaders(model: string): Record<string, string> {
    const table = this.options.get('claude.model_headers_settings');
    const headers: Record<string, string> = {};
    for (const [name, values] of Object.entries(table[model] ?? {})) headers[name.toLowerCase()] = values.join(',');
    return headers;
  }
}
