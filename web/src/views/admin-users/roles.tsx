// Placeholder until this view is built.

import { PageHeader } from '../../components/PageHeader.tsx';
import { Empty } from '../../components/states-ui.tsx';

export default function View() {
  return (
    <>
      <PageHeader title="Roles and permissions" />
      <Empty>Not built yet</Empty>
    </>
  );
}
