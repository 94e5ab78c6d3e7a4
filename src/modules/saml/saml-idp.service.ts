import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { OptionsService } from '../options/options.service';
import { OutboundGuardService, outboundRefusal, refusalToAppError } from '../outbound/outbound-guard.service';
import { IdpDescriptor, IdpMetadataError, parseIdpMetadata } from './idp-metadata';

const METADATA_TIMEOUT_MS = 10_000;
/** Metadata from a URL is read again after this long, so the IdP's certificate rollovers reach us. */
const METADATA_MAX_AGE_MS = 60 * 60 * 1000;
/** Far above any real metadata document (Entra's, with its signature, is some 30 kB). */
const METADATA_MAX_LENGTH = 1_000_000;

/**
 * The IdP as its metadata describes it: from the metadata URL (through the outbound guard, like
 * every address an admin typed) or the pasted XML. Kept in memory until a saml.* setting changes
 * or, for a URL, for an hour.
 */
@Injectable()
export class SamlIdpService implements OnModuleDestroy {
  private readonly logger = new Logger(SamlIdpService.name);
  private cached?: { loadedAt: number; descriptor: Promise<IdpDescriptor> };
  private readonly stopWatching: () => void;

  constructor(
    private readonly options: OptionsService,
    private readonly outbound: OutboundGuardService,
  ) {
    this.stopWatching = options.onChange((key) => {
      if (key.startsWith('saml.')) this.cached = undefined;
    });
  }

  onModuleDestroy(): void {
    this.stopWatching();
  }

  /** The IdP's descriptor; `fresh` reads the metadata again (the settings page's check). */
  descriptor(fresh = false): Promise<IdpDescriptor> {
    const stale = this.cached && Date.now() - this.cached.loadedAt > METADATA_MAX_AGE_MS;
    if (!this.cached || stale || fresh) {
      const descriptor = this.load();
      this.cached = { loadedAt: Date.now(), descriptor };
      descriptor.catch(() => {
        if (this.cached?.descriptor === descriptor) this.cached = undefined;
      });
    }
    return this.cached.descriptor;
  }

  private async load(): Promise<IdpDescriptor> {
    const url = this.options.get('saml.idp_metadata_url');
    const xml = url ? await this.fetch(url) : this.options.get('saml.idp_metadata_xml').trim();
    if (!xml) throw new AppError('saml.not_configured');
    try {
      return await parseIdpMetadata(xml);
    } catch (error) {
      if (error instanceof IdpMetadataError) throw new AppError('saml.metadata_invalid', { reason: error.message });
      throw error;
    }
  }

  private async fetch(url: string): Promise<string> {
    try {
      const answer = await this.outbound.getText(new URL(url), { Accept: 'application/samlmetadata+xml, application/xml, text/xml' }, METADATA_TIMEOUT_MS);
      if (answer.status !== 200) throw new AppError('saml.metadata_fetch_failed', { reason: `HTTP ${answer.status}` });
      if (answer.text.length > METADATA_MAX_LENGTH) throw new AppError('saml.metadata_invalid', { reason: 'the document is too large' });
      return answer.text;
    } catch (error) {
      if (error instanceof AppError) throw error;
      const refused = outboundRefusal(error);
      if (refused) throw refusalToAppError(refused);
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`SAML metadata fetch from ${url} failed: ${reason}`);
      throw new AppError('saml.metadata_fetch_failed', { reason });
    }
  }
}
