// A view that fails while rendering (data it did not expect) shows what failed, not a blank page; the menu
// stays usable and opening another view clears it.

import { Alert, Button } from '@mantine/core';
import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';

interface State {
  error: Error | null;
}

class Boundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Alert color="red" title="This view could not be shown" role="alert">
        <p>{this.state.error.message}</p>
        <Button variant="light" color="red" onClick={() => this.setState({ error: null })}>
          Try again
        </Button>
      </Alert>
    );
  }
}

export function ViewErrorBoundary({ children }: { children: ReactNode }) {
  const location = useLocation();
  return <Boundary key={location.pathname}>{children}</Boundary>;
}
