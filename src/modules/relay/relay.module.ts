import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing/billing.module';
import { ChannelsModule } from '../channels/channels.module';
import { ChannelHealthModule } from '../channel-health/channel-health.module';
import { ChannelMonitorModule } from '../monitoring/channel-monitor.module';
import { AbilityEntity } from '../channels/entities/ability.entity';
import { ChannelEntity } from '../channels/entities/channel.entity';
import { OptionsModule } from '../options/options.module';
import { OutboundModule } from '../outbound/outbound.module';
import { PricingModule } from '../pricing/pricing.module';
import { SessionsModule } from '../sessions/sessions.module';
import { TokenEntity } from '../tokens/entities/token.entity';
import { UserEntity } from '../users/entities/user.entity';
import { ChannelAffinityService } from './affinity/channel-affinity.service';
import { AutoGroupRouter } from './auto-group';
import { BillingDashboardService } from './billing-dashboard.service';
import { ChannelCacheModule } from './caches/channel-cache.module';
import { TokenCacheService } from './caches/token-cache.service';
import { UserCacheService } from './caches/user-cache.service';
import { ClaudeTokenCountService } from './claude-token-count.service';
import { ChannelKeysController } from './channel-keys.controller';
import { ChannelKeysService } from './channel-keys.service';
import { PlaygroundAuthService } from './playground-auth.service';
import { ModelRateLimiterService } from './model-rate-limit/model-rate-limiter.service';
import { RelayHttpHandler } from './relay-http.handler';
import { SensitiveWordsService } from './sensitive-words/sensitive-words.service';
import { RelayService } from './relay.service';
import { NATIVE_PROVIDERS } from './providers/native';
import { ProviderRegistry } from './providers/provider-registry';
import { RelayBillingService } from './stages/billing-hold';
import { CallerRateLimiterService } from './caller-rate-limit/caller-rate-limiter.service';
import { RelayDeliverStage } from './stages/deliver.stage';
import { RelayDispatchStage } from './stages/dispatch.stage';
import { ModelFallbackService } from './fallback/model-fallback.service';
import { RelayPrepareStage } from './stages/prepare.stage';
import { ResponseCacheService } from './response-cache/response-cache.service';
import { RelaySettleStage } from './stages/settle.stage';
import { TokenAuthService } from './token-auth.service';
import { TokenCounterService } from './token-counter.service';
import { UpstreamClientService } from './upstream-client.service';
import { RealtimeSocketService } from './websocket/realtime-socket.service';
import { RelaySocketsService } from './websocket/relay-sockets.service';
import { ResponsesSocketBridge } from './websocket/responses-socket-bridge';
import { ResponsesSocketService } from './websocket/responses-socket.service';

/** The OpenAI-compatible relay (/v1, /pg) and the admin's channel keys. */
@Module({
  imports: [TypeOrmModule.forFeature([ChannelEntity, AbilityEntity, TokenEntity, UserEntity]), OptionsModule, PricingModule, SessionsModule, BillingModule, OutboundModule, ChannelsModule, ChannelHealthModule, ChannelCacheModule, ChannelMonitorModule],
  controllers: [ChannelKeysController],
  providers: [
    TokenCacheService,
    UserCacheService,
    TokenAuthService,
    PlaygroundAuthService,
    UpstreamClientService,
    ChannelKeysService,
    ...NATIVE_PROVIDERS,
    ProviderRegistry,
    RelayBillingService,
    CallerRateLimiterService,
    SensitiveWordsService,
    ModelRateLimiterService,
    AutoGroupRouter,
    RelayPrepareStage,
    ChannelAffinityService,
    ModelFallbackService,
    RelayDispatchStage,
    RelayDeliverStage,
    RelaySettleStage,
    ResponseCacheService,
    TokenCounterService,
    ClaudeTokenCountService,
    RelayService,
    BillingDashboardService,
    ResponsesSocketBridge,
    ResponsesSocketService,
    RealtimeSocketService,
    RelaySocketsService,
    RelayHttpHandler,
  ],
  // The task relays (modules/tasks) reuse authentication, channels, the billing hold and caches, the upstream client and the prompt check;
  // the channel probes (modules/monitoring) the adaptors and the upstream client.
  exports: [ChannelCacheModule, TokenAuthService, TokenCacheService, UserCacheService, UpstreamClientService, ProviderRegistry, SensitiveWordsService, RelayBillingService],
})
export class RelayModule {}
