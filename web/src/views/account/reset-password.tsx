// Placeholder until this view is built.

import { PublicFrame } from '../../layout/PublicFrame.tsx';

export default function View() {
  return <PublicFrame title="Not built yet">{null}</PublicFrame>;
}
