import { Stack } from '@mui/material';
import { EmailRestrictionSection, LoginSection, SmtpSection } from './AccountSections';
import { AuditLogSection, EpaySection, ServerSection, StripeSection } from './ServerAndPaymentSections';
import { ScimSection } from './ScimSection';
import { SamlSection } from './SamlSection';
import { GitHubSection, LinuxDoSection, OidcSection, TelegramSection, TurnstileSection, WeChatSection } from './SignInProviderSections';

/**
 * The system tab (root): each card saves only its own keys through the settings save hook, so a
 * refused value in one card never blocks another. Order follows spec part 2: server, payment,
 * sign-in and registration, mail, then the third-party sign-ins.
 */
export default function SystemSettings() {
  return (
    <Stack spacing={2} data-testid="settings-system">
      <ServerSection />
      <AuditLogSection />
      <EpaySection />
      <StripeSection />
      <LoginSection />
      <EmailRestrictionSection />
      <SmtpSection />
      <GitHubSection />
      <OidcSection />
      <SamlSection />
      <LinuxDoSection />
      <WeChatSection />
      <TelegramSection />
      <TurnstileSection />
      <ScimSection />
    </Stack>
  );
}
