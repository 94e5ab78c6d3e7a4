import { Suspense, useState } from 'react';
import { Box, Divider, Drawer, LinearProgress, List, ListItemButton, ListItemText, useMediaQuery, useTheme } from '@mui/material';
import { Link as RouterLink, Navigate, Outlet, useLocation } from 'react-router';
import { useStatus } from '../features/status/StatusProvider';
import { StorageKey } from '../lib/storage';
import { useSessionUser } from '../lib/session';
import { Footer } from './Footer';
import { pathHasSidebar, visibleSections } from './navigation';
import { Sidebar, SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH } from './Sidebar';
import { TopBar, useTopNavLinks } from './TopBar';

function initialCollapsed(): boolean {
  const own = localStorage.getItem(StorageKey.sidebarCollapsed);
  if (own !== null) return own === 'true';
  return localStorage.getItem(StorageKey.defaultCollapseSidebar) === 'true';
}

/** Top bar, sidebar (desktop: permanent and collapsible; below 600 px: a drawer) and footer around the page. */
export function AppShell() {
  const theme = useTheme();
  const isMobile = useMediaQuery(theme.breakpoints.down('sm'));
  const { pathname } = useLocation();
  const { status, loaded } = useStatus();
  const user = useSessionUser();
  const topLinks = useTopNavLinks();
  const [collapsed, setCollapsed] = useState(initialCollapsed);
  const [mobileOpen, setMobileOpen] = useState(false);

  if (loaded && status.setup === false && pathname !== '/setup') {
    return <Navigate to="/setup" replace />;
  }

  const sections = user ? visibleSections(user, status) : [];
  const showSidebar = sections.length > 0 && pathHasSidebar(pathname);
  const sidebarWidth = collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH;

  function toggleCollapsed() {
    setCollapsed((previous) => {
      localStorage.setItem(StorageKey.sidebarCollapsed, String(!previous));
      return !previous;
    });
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <TopBar isMobile={isMobile} onOpenMenu={() => setMobileOpen(true)} />
      {isMobile && (
        <Drawer open={mobileOpen} onClose={() => setMobileOpen(false)} slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH + 24 } } }}>
          <List dense sx={{ pt: 2 }}>
            {topLinks.map((link) => (
              <ListItemButton
                key={link.to}
                {...(link.external
                  ? { component: 'a', href: link.to, target: '_blank', rel: 'noopener noreferrer' }
                  : { component: RouterLink, to: link.to })}
                onClick={() => setMobileOpen(false)}
                sx={{ mx: 1, borderRadius: 2 }}
              >
                <ListItemText primary={link.label} slotProps={{ primary: { sx: { fontWeight: 500 } } }} />
              </ListItemButton>
            ))}
          </List>
          {sections.length > 0 && <Divider />}
          <Sidebar sections={sections} collapsed={false} onNavigate={() => setMobileOpen(false)} />
        </Drawer>
      )}
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        {showSidebar && !isMobile && (
          <Box
            sx={{
              width: sidebarWidth,
              flexShrink: 0,
              borderRight: 1,
              borderColor: 'divider',
              bgcolor: 'background.paper',
              transition: theme.transitions.create('width'),
              position: 'sticky',
              top: 64,
              height: 'calc(100vh - 64px)',
            }}
            data-testid="sidebar"
          >
            <Sidebar sections={sections} collapsed={collapsed} onToggleCollapsed={toggleCollapsed} />
          </Box>
        )}
        <Box component="main" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <Box sx={{ flex: 1 }}>
            {/* Pages are loaded on first visit (App.tsx); the shell stays while a page's chunk arrives. */}
            <Suspense fallback={<LinearProgress data-testid="page-loading" />}>
              <Outlet />
            </Suspense>
          </Box>
          <Footer />
        </Box>
      </Box>
    </Box>
  );
}
