// Placeholder until this view is built.

import { PageHeader } from '../../components/PageHeader.tsx';
import { Empty } from '../../components/states-ui.tsx';

export default function View() {
  return (
    <>
      <PageHeader title="Page not found" />
      <Empty>Not built yet</Empty>
    </>
  );
}
