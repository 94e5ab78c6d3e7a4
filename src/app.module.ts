import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { CommonModule } from './common/common.module';
import { ApiExceptionFilter } from './common/http/exception.filter';
import { EnvelopeInterceptor } from './common/http/envelope';
import { DatabaseModule } from './database/database.module';
import { RawRoutes } from './http/raw-routes';
import { AuthModule } from './modules/auth/auth.module';
import { BillingModule } from './modules/billing/billing.module';
import { ChannelByIdModule } from './modules/channels/channel-by-id.module';
import { ChannelsModule } from './modules/channels/channels.module';
import { DataModule } from './modules/data/data.module';
import { LogsModule } from './modules/logs/logs.module';
import { MailModule } from './modules/mail/mail.module';
import { VerificationModule } from './modules/verification/verification.module';
import { OAuthModule } from './modules/oauth/oauth.module';
import { SamlModule } from './modules/saml/saml.module';
import { PasskeysModule } from './modules/passkeys/passkeys.module';
import { MonitoringModule } from './modules/monitoring/monitoring.module';
import { MetricsEndpointModule, MetricsModule } from './modules/metrics/metrics.module';
import { HealthModule } from './modules/health/health.module';
import { TracingModule } from './modules/tracing/tracing.module';
import { OpenApiModule } from './modules/openapi/openapi.module';
import { AuditJobsModule, AuditModule } from './modules/audit/audit.module';
import { ModelMetaByIdModule, ModelsModule } from './modules/models/models.module';
import { PricingPageModule } from './modules/pricing/pricing-page.module';
import { RatioSyncModule } from './modules/ratio-sync/ratio-sync.module';
import { PricingModule } from './modules/pricing/pricing.module';
import { PaymentsModule } from './modules/payments/payments.module';
import { PlansModule } from './modules/plans/plans.module';
import { RedemptionByIdModule, RedemptionsModule } from './modules/redemptions/redemptions.module';
import { RelayModule } from './modules/relay/relay.module';
import { ScimModule } from './modules/scim/scim.module';
import { TokenByIdModule } from './modules/tokens/token-by-id.module';
import { TokensModule } from './modules/tokens/tokens.module';
import { OptionsModule } from './modules/options/options.module';
import { SessionsModule } from './modules/sessions/sessions.module';
import { SystemModule } from './modules/system/system.module';
import { TasksModule } from './modules/tasks/tasks.module';
import { UserByIdModule } from './modules/users/user-by-id.module';
import { UsersModule } from './modules/users/users.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        CommonModule,
        MetricsModule,
        TracingModule,
        AuditModule,
        // Jobs run on the master only: a slave registers no cron, interval or timeout.
        ScheduleModule.forRoot(config.nodeType === 'master' ? {} : { cronJobs: false, intervals: false, timeouts: false }),
        OptionsModule,
        SessionsModule,
        UsersModule,
        SystemModule,
        MailModule,
        VerificationModule,
        AuthModule,
        OAuthModule,
        SamlModule,
        PasskeysModule,
        PricingModule,
        ChannelsModule,
        TokensModule,
        LogsModule,
        BillingModule,
        RedemptionsModule,
        PlansModule,
        PaymentsModule,
        RelayModule,
        TasksModule,
        ScimModule,
        ModelsModule,
        PricingPageModule,
        RatioSyncModule,
        MonitoringModule,
        DataModule,
        MetricsEndpointModule,
        HealthModule,
        OpenApiModule,
        AuditJobsModule,
        // `:id` routes: after every module with static paths under the same prefix.
        ChannelByIdModule,
        TokenByIdModule,
        RedemptionByIdModule,
        ModelMetaByIdModule,
        // Must stay last: its GET /api/user/:id would shadow static /api/user/* paths.
        UserByIdModule,
      ],
      providers: [
        RawRoutes,
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
      ],
      exports: [RawRoutes],
    };
  }
}
