import { lazy, type ComponentType } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { CopyProvider } from './components/CopyProvider';
import { Toaster } from './components/Toaster';
import { StatusProvider } from './features/status/StatusProvider';
import { AppShell } from './layout/AppShell';
import { RequireAdmin, RequireAuth, RequireRoot, RequireSignedIn } from './layout/guards';
import { ThemeModeProvider } from './theme/ThemeModeProvider';
import { loadConsoleNamespaces } from './i18n';

type PageModule<Name extends string> = Record<Name, ComponentType>;

/**
 * Every page is its own chunk, loaded when its route is first visited (the shell's Suspense shows a progress bar
 * meanwhile), so a signed-out visitor's first load carries the shell and one page, not the whole console.
 */
function lazyPage<Name extends string>(load: () => Promise<PageModule<Name>>, name: Name) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

/** A page that uses the console's translations: its chunk and theirs load in parallel. */
function lazyConsolePage<Name extends string>(load: () => Promise<PageModule<Name>>, name: Name) {
  return lazyPage(() => Promise.all([load(), loadConsoleNamespaces()]).then(([module]) => module), name);
}

const LoginPage = lazyPage(() => import('./features/auth/LoginPage'), 'LoginPage');
const OAuthCallbackPage = lazyPage(() => import('./features/auth/OAuthCallbackPage'), 'OAuthCallbackPage');
const SamlCallbackPage = lazyPage(() => import('./features/auth/SamlCallbackPage'), 'SamlCallbackPage');
const RegisterPage = lazyPage(() => import('./features/auth/RegisterPage'), 'RegisterPage');
const ResetConfirmPage = lazyPage(() => import('./features/auth/ResetConfirmPage'), 'ResetConfirmPage');
const ResetPasswordPage = lazyPage(() => import('./features/auth/ResetPasswordPage'), 'ResetPasswordPage');
const AboutPage = lazyPage(() => import('./features/home/AboutPage'), 'AboutPage');
const HomePage = lazyPage(() => import('./features/home/HomePage'), 'HomePage');
const NotFoundPage = lazyPage(() => import('./features/home/NotFoundPage'), 'NotFoundPage');
const PersonalPage = lazyConsolePage(() => import('./features/personal/PersonalPage'), 'PersonalPage');
const SetupPage = lazyPage(() => import('./features/setup/SetupPage'), 'SetupPage');
const TwoFactorSetupPage = lazyConsolePage(() => import('./features/identity/TwoFactorSetupPage'), 'TwoFactorSetupPage');
const UsersPage = lazyConsolePage(() => import('./features/users/UsersPage'), 'UsersPage');
const SettingsPage = lazyConsolePage(() => import('./features/settings/SettingsPage'), 'SettingsPage');
const ChannelsPage = lazyConsolePage(() => import('./features/channels/ChannelsPage'), 'ChannelsPage');
const DetailPage = lazyConsolePage(() => import('./features/detail/DetailPage'), 'DetailPage');
const LogsPage = lazyConsolePage(() => import('./features/logs/LogsPage'), 'LogsPage');
const Chat2LinkPage = lazyConsolePage(() => import('./features/chat/ChatPage'), 'Chat2LinkPage');
const ChatPage = lazyConsolePage(() => import('./features/chat/ChatPage'), 'ChatPage');
const DrawingLogPage = lazyConsolePage(() => import('./features/tasks/DrawingLogPage'), 'DrawingLogPage');
const TaskLogPage = lazyConsolePage(() => import('./features/tasks/TaskLogPage'), 'TaskLogPage');
const PlaygroundPage = lazyConsolePage(() => import('./features/playground/PlaygroundPage'), 'PlaygroundPage');
const PricingPage = lazyConsolePage(() => import('./features/pricing/PricingPage'), 'PricingPage');
const TokensPage = lazyConsolePage(() => import('./features/tokens/TokensPage'), 'TokensPage');
const RedemptionsPage = lazyConsolePage(() => import('./features/redemptions/RedemptionsPage'), 'RedemptionsPage');
const PlansPage = lazyConsolePage(() => import('./features/plans/PlansPage'), 'PlansPage');
const ModelsPage = lazyConsolePage(() => import('./features/models/ModelsPage'), 'ModelsPage');
const AuditPage = lazyConsolePage(() => import('./features/audit/AuditPage'), 'AuditPage');
const TopUpReturnPage = lazyConsolePage(() => import('./features/wallet/WalletPage'), 'TopUpReturnPage');
const WalletPage = lazyConsolePage(() => import('./features/wallet/WalletPage'), 'WalletPage');

export function App() {
  return (
    <ThemeModeProvider>
      <StatusProvider>
        <CopyProvider>
          <BrowserRouter>
            <Routes>
              <Route element={<AppShell />}>
                <Route index element={<HomePage />} />
                <Route path="about" element={<AboutPage />} />
                <Route path="setup" element={<SetupPage />} />
                <Route path="login" element={<LoginPage />} />
                <Route path="register" element={<RegisterPage />} />
                <Route path="reset" element={<ResetPasswordPage />} />
                <Route path="user/reset" element={<ResetConfirmPage />} />
                <Route path="oauth/:provider" element={<OAuthCallbackPage />} />
                <Route path="saml/callback" element={<SamlCallbackPage />} />
                {['user', 'user/edit', 'user/edit/:id'].map((path) => (
                  <Route
                    key={path}
                    path={path}
                    element={
                      <RequireAdmin>
                        <UsersPage />
                      </RequireAdmin>
                    }
                  />
                ))}
                <Route
                  path="setting"
                  element={
                    <RequireAuth>
                      <SettingsPage />
                    </RequireAuth>
                  }
                />
                <Route path="pricing" element={<PricingPage />} />
                {['channel', 'channel/add', 'channel/edit/:id'].map((path) => (
                  <Route
                    key={path}
                    path={path}
                    element={
                      <RequireAdmin>
                        <ChannelsPage />
                      </RequireAdmin>
                    }
                  />
                ))}
                <Route
                  path="token"
                  element={
                    <RequireAuth>
                      <TokensPage />
                    </RequireAuth>
                  }
                />
                <Route
                  path="redemption"
                  element={
                    <RequireAdmin>
                      <RedemptionsPage />
                    </RequireAdmin>
                  }
                />
                <Route
                  path="plan"
                  element={
                    <RequireAdmin>
                      <PlansPage />
                    </RequireAdmin>
                  }
                />
                <Route
                  path="models"
                  element={
                    <RequireAdmin>
                      <ModelsPage />
                    </RequireAdmin>
                  }
                />
                <Route
                  path="audit"
                  element={
                    <RequireRoot>
                      <AuditPage />
                    </RequireRoot>
                  }
                />
                <Route
                  path="topup"
                  element={
                    <RequireAuth>
                      <WalletPage />
                    </RequireAuth>
                  }
                />
                <Route
                  path="topup/return"
                  element={
                    <RequireAuth>
                      <TopUpReturnPage />
                    </RequireAuth>
                  }
                />
                <Route
                  path="detail"
                  element={
                    <RequireAuth>
                      <DetailPage />
                    </RequireAuth>
                  }
                />
                <Route
                  path="log"
                  element={
                    <RequireAuth>
                      <LogsPage />
                    </RequireAuth>
                  }
                />
                <Route
                  path="midjourney"
                  element={
                    <RequireAuth>
                      <DrawingLogPage />
                    </RequireAuth>
                  }
                />
                <Route
                  path="task"
                  element={
                    <RequireAuth>
                      <TaskLogPage />
                    </RequireAuth>
                  }
                />
                {/* Public per the route table: ChatPage asks for sign-in only when the link needs a token. */}
                {['chat', 'chat/:id'].map((path) => (
                  <Route key={path} path={path} element={<ChatPage />} />
                ))}
                <Route
                  path="chat2link"
                  element={
                    <RequireAuth>
                      <Chat2LinkPage />
                    </RequireAuth>
                  }
                />
                <Route
                  path="playground"
                  element={
                    <RequireAuth>
                      <PlaygroundPage />
                    </RequireAuth>
                  }
                />
                <Route
                  path="two-factor-setup"
                  element={
                    <RequireSignedIn>
                      <TwoFactorSetupPage />
                    </RequireSignedIn>
                  }
                />
                <Route
                  path="personal"
                  element={
                    <RequireAuth>
                      <PersonalPage />
                    </RequireAuth>
                  }
                />
                <Route path="*" element={<NotFoundPage />} />
              </Route>
            </Routes>
          </BrowserRouter>
          <Toaster />
        </CopyProvider>
      </StatusProvider>
    </ThemeModeProvider>
  );
}
