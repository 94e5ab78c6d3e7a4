import { useState } from 'react';
import {
  AppBar,
  Avatar,
  Box,
  Button,
  Chip,
  Divider,
  IconButton,
  ListItemIcon,
  Menu,
  MenuItem,
  Toolbar,
  Tooltip,
  Typography,
} from '@mui/material';
import DarkModeOutlinedIcon from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlinedIcon from '@mui/icons-material/LightModeOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import ManageAccountsOutlinedIcon from '@mui/icons-material/ManageAccountsOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import TranslateIcon from '@mui/icons-material/Translate';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { useStatus } from '../features/status/StatusProvider';
import { LANGUAGES } from '../i18n';
import { setSessionUser, useSessionUser } from '../lib/session';
import { toast } from '../lib/toast';
import { useThemeMode } from '../theme/ThemeModeProvider';
import { CONSOLE_HOME } from './navigation';

export interface TopNavLink {
  label: string;
  to: string;
  external?: boolean;
}

/** Top-bar links: home, console, pricing, docs (only when configured) and about. */
export function useTopNavLinks(): TopNavLink[] {
  const { t } = useTranslation();
  const { status } = useStatus();
  const links: TopNavLink[] = [
    { label: t('shell:nav.home'), to: '/' },
    { label: t('shell:nav.console'), to: CONSOLE_HOME },
    { label: t('shell:nav.pricing'), to: '/pricing' },
  ];
  if (status.docs_link) links.push({ label: t('shell:nav.docs'), to: status.docs_link, external: true });
  links.push({ label: t('shell:nav.about'), to: '/about' });
  return links;
}

export function TopBar({ isMobile, onOpenMenu }: { isMobile: boolean; onOpenMenu: () => void }) {
  const { t, i18n } = useTranslation();
  const { status } = useStatus();
  const { mode, toggleMode } = useThemeMode();
  const user = useSessionUser();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const links = useTopNavLinks();
  const [languageAnchor, setLanguageAnchor] = useState<HTMLElement | null>(null);
  const [userAnchor, setUserAnchor] = useState<HTMLElement | null>(null);

  const systemName = status.system_name || t('shell:defaultSystemName');
  const modeBadge = status.self_use_mode_enabled
    ? t('shell:badge.selfUse')
    : status.demo_site_enabled
      ? t('shell:badge.demo')
      : null;

  async function logout() {
    setUserAnchor(null);
    await api.get('/api/user/logout', { quiet: true });
    setSessionUser(null);
    toast.success(t('shell:loggedOut'));
    navigate('/login');
  }

  const isActive = (to: string) => (to === '/' ? pathname === '/' : pathname.startsWith(to));

  return (
    <AppBar position="sticky">
      <Toolbar sx={{ gap: 1, minHeight: { xs: 56, sm: 64 } }}>
        {isMobile && (
          <IconButton edge="start" onClick={onOpenMenu} aria-label={t('shell:openMenu')}>
            <MenuIcon />
          </IconButton>
        )}
        <Box
          component={RouterLink}
          to="/"
          sx={{ display: 'flex', alignItems: 'center', gap: 1.25, color: 'inherit', textDecoration: 'none', mr: 2, minWidth: 0 }}
        >
          <Box component="img" src={status.logo || '/logo.svg'} alt="" sx={{ width: 30, height: 30, borderRadius: 1 }} />
          <Typography variant="h6" noWrap sx={{ fontSize: 18 }}>
            {systemName}
          </Typography>
        </Box>
        {modeBadge && <Chip size="small" color="warning" variant="outlined" label={modeBadge} data-testid="mode-badge" />}
        {!isMobile && (
          <Box component="nav" sx={{ display: 'flex', gap: 0.5, ml: 1 }}>
            {links.map((link) =>
              link.external ? (
                <Button key={link.to} href={link.to} target="_blank" rel="noopener noreferrer" color="inherit">
                  {link.label}
                </Button>
              ) : (
                <Button
                  key={link.to}
                  component={RouterLink}
                  to={link.to}
                  color={isActive(link.to) ? 'primary' : 'inherit'}
                >
                  {link.label}
                </Button>
              ),
            )}
          </Box>
        )}
        <Box sx={{ flex: 1 }} />
        <Tooltip title={mode === 'dark' ? t('shell:theme.light') : t('shell:theme.dark')}>
          <IconButton onClick={toggleMode} aria-label={t('shell:theme.toggle')} data-testid="theme-toggle">
            {mode === 'dark' ? <LightModeOutlinedIcon /> : <DarkModeOutlinedIcon />}
          </IconButton>
        </Tooltip>
        <Tooltip title={t('shell:language.label')}>
          <IconButton
            onClick={(event) => setLanguageAnchor(event.currentTarget)}
            aria-label={t('shell:language.label')}
            data-testid="language-menu"
          >
            <TranslateIcon />
          </IconButton>
        </Tooltip>
        <Menu anchorEl={languageAnchor} open={!!languageAnchor} onClose={() => setLanguageAnchor(null)}>
          {LANGUAGES.map((language) => (
            <MenuItem
              key={language}
              selected={i18n.language === language}
              onClick={() => {
                setLanguageAnchor(null);
                void i18n.changeLanguage(language);
              }}
              data-testid={`language-${language}`}
            >
              {t(`shell:language.${language}`)}
            </MenuItem>
          ))}
        </Menu>
        {user ? (
          <>
            <IconButton onClick={(event) => setUserAnchor(event.currentTarget)} aria-label={t('shell:userMenu')} data-testid="user-menu">
              <Avatar sx={{ width: 32, height: 32, bgcolor: 'primary.main', fontSize: 15 }}>
                {(user.display_name || user.username).slice(0, 1).toUpperCase()}
              </Avatar>
            </IconButton>
            <Menu
              anchorEl={userAnchor}
              open={!!userAnchor}
              onClose={() => setUserAnchor(null)}
              anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
              transformOrigin={{ vertical: 'top', horizontal: 'right' }}
            >
              <Box sx={{ px: 2, py: 1 }}>
                <Typography sx={{ fontWeight: 600 }}>{user.display_name || user.username}</Typography>
                <Typography variant="body2" color="text.secondary">
                  @{user.username}
                </Typography>
              </Box>
              <Divider />
              <MenuItem
                onClick={() => {
                  setUserAnchor(null);
                  navigate('/personal');
                }}
              >
                <ListItemIcon>
                  <ManageAccountsOutlinedIcon fontSize="small" />
                </ListItemIcon>
                {t('shell:nav.personal')}
              </MenuItem>
              <MenuItem onClick={() => void logout()} data-testid="logout">
                <ListItemIcon>
                  <LogoutIcon fontSize="small" />
                </ListItemIcon>
                {t('shell:logout')}
              </MenuItem>
            </Menu>
          </>
        ) : (
          <Box sx={{ display: 'flex', gap: 1, ml: 0.5 }}>
            <Button component={RouterLink} to="/login" variant="outlined" size="small">
              {t('shell:login')}
            </Button>
            {!status.self_use_mode_enabled && !isMobile && (
              <Button component={RouterLink} to="/register" variant="contained" size="small">
                {t('shell:register')}
              </Button>
            )}
          </Box>
        )}
      </Toolbar>
    </AppBar>
  );
}
