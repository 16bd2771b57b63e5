// A view, or why it is closed: its module switched off for this port, or the role without the permission. The
// page keeps its title, so the user sees where they are and why it is empty.

import type { ReactNode } from 'react';
import { type ModuleSetting, useSession } from '../session/session.tsx';
import { PageHeader } from './PageHeader.tsx';
import { Empty } from './states-ui.tsx';

export interface ViewGateProps {
  title: string;
  module: ModuleSetting;
  /** Said when the module is off. */
  off: string;
  /** The permission the view needs, if any. */
  permission?: string;
  /** Said when the role lacks it. */
  refusal?: string;
  children: ReactNode;
}

export function ViewGate({ title, module, off, permission, refusal = '', children }: ViewGateProps) {
  const { can, moduleOn } = useSession();
  const closed = !moduleOn(module) ? off : permission !== undefined && !can(permission) ? refusal : null;
  if (closed !== null) {
    return (
      <>
        <PageHeader title={title} />
        <Empty>{closed}</Empty>
      </>
    );
  }
  return <>{children}</>;
}
