import type { MouseEvent, ReactNode } from 'react';
import { useNavigate } from 'react-router';

/** An in-app link that keeps the page (client-side navigation) yet stays a real link. */
export function AppLink({ to, children, testId }: { to: string; children: ReactNode; testId?: string }) {
  const navigate = useNavigate();
  const go = (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    void navigate(to);
  };
  return (
    <a href={to} onClick={go} data-testid={testId}>
      {children}
    </a>
  );
}
