import { BrowserRouter, Route, Routes } from 'react-router';
import { CopyProvider } from './components/CopyProvider';
import { Toaster } from './components/Toaster';
import { LoginPage } from './features/auth/LoginPage';
import { OAuthCallbackPage } from './features/auth/OAuthCallbackPage';
import { RegisterPage } from './features/auth/RegisterPage';
import { ResetConfirmPage } from './features/auth/ResetConfirmPage';
import { ResetPasswordPage } from './features/auth/ResetPasswordPage';
import { AboutPage } from './features/home/AboutPage';
import { HomePage } from './features/home/HomePage';
import { NotFoundPage } from './features/home/NotFoundPage';
import { PersonalPage } from './features/personal/PersonalPage';
import { TwoFactorSetupPage } from './features/identity/TwoFactorSetupPage';
import { SetupPage } from './features/setup/SetupPage';
import { StatusProvider } from './features/status/StatusProvider';
import { UsersPage } from './features/users/UsersPage';
import { SettingsPage } from './features/settings/SettingsPage';
import { ChannelsPage } from './features/channels/ChannelsPage';
import { DetailPage } from './features/detail/DetailPage';
import { LogsPage } from './features/logs/LogsPage';
import { Chat2LinkPage, ChatPage } from './features/chat/ChatPage';
import { DrawingLogPage } from './features/tasks/DrawingLogPage';
import { TaskLogPage } from './features/tasks/TaskLogPage';
import { PlaygroundPage } from './features/playground/PlaygroundPage';
import { PricingPage } from './features/pricing/PricingPage';
import { TokensPage } from './features/tokens/TokensPage';
import { RedemptionsPage } from './features/redemptions/RedemptionsPage';
import { AuditPage } from './features/audit/AuditPage';
import { TopUpReturnPage, WalletPage } from './features/wallet/WalletPage';
import { AppShell } from './layout/AppShell';
import { RequireAdmin, RequireAuth, RequireRoot, RequireSignedIn } from './layout/guards';
import { ThemeModeProvider } from './theme/ThemeModeProvider';

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
                <Route
                  path="user"
                  element={
                    <RequireAdmin>
                      <UsersPage />
                    </RequireAdmin>
                  }
                />
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
                {['chat', 'chat/:id'].map((path) => (
                  <Route
                    key={path}
                    path={path}
                    element={
                      <RequireAuth>
                        <ChatPage />
                      </RequireAuth>
                    }
                  />
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
