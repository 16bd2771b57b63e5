// The shared frame of every signed-in view: header (name, live indicator, user menu), the menu as a side bar
// (a drawer on a phone), and the view. A skip link lets keyboard users jump past the menu.

import { Anchor, AppShell, Badge, Burger, Group, Menu, NavLink, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Outlet, NavLink as RouterLink, useLocation } from 'react-router';
import { useRealtimeConnected } from '../realtime/socket.ts';
import { useSession } from '../session/session.tsx';
import { visibleMenu } from './menu.ts';

export function AppLayout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();
  const { user, moduleOn, signOut } = useSession();
  const live = useRealtimeConnected();
  const location = useLocation();
  const sections = visibleMenu(user?.permissions ?? [], moduleOn);
  const displayName = user ? `${user.first_name} ${user.last_name}`.trim() || user.email : '';

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <Anchor href="#main" className="skip-link">
        {t('Skip to content')}
      </Anchor>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('Menu')} />
            <Text fw={700} component="span">
              {t('Port Call Activity')}
            </Text>
            <Badge
              color={live ? 'teal.9' : 'gray.7'}
              variant="filled"
              title={t(live ? 'Views update as changes happen' : 'Reconnecting to live updates')}
            >
              {t(live ? 'Live' : 'Offline')}
            </Badge>
          </Group>
          <Menu position="bottom-end">
            <Menu.Target>
              {/* The name shown is the start of the button's name, so speech input can say what is seen. */}
              <UnstyledButton aria-label={`${displayName} – ${t('Account menu')}`}>
                <Text size="sm" truncate maw={220}>
                  {displayName}
                </Text>
              </UnstyledButton>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item component={RouterLink} to="/profile">
                {t('Profile and password')}
              </Menu.Item>
              <Menu.Item component="a" href="/status">
                {t('Service status')}
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item onClick={() => void signOut()}>{t('Sign out')}</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('Main menu')}>
        <ScrollArea>
          {sections.map((section) => (
            <nav key={section.label} aria-label={t(section.label)}>
              <Text size="xs" fw={700} c="gray.7" tt="uppercase" px="sm" pt="sm" pb={4}>
                {t(section.label)}
              </Text>
              {section.entries.map((entry) => (
                <NavLink
                  key={entry.path}
                  component={RouterLink}
                  to={entry.path}
                  label={t(entry.label)}
                  // Filled: white on dark blue reads at any hover state (the light variant's blue text does not).
                  variant="filled"
                  active={entry.path === '/' ? location.pathname === '/' : location.pathname.startsWith(entry.path)}
                  onClick={close}
                />
              ))}
            </nav>
          ))}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
