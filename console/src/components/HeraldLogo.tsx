import { theme } from 'antd';
import type { RouteTheme } from '../routes/route-types.ts';

/**
 * The Herald mark in the theme's primary colour: an envelope for email, a message bubble for
 * SMS, so the two products are told apart at a glance.
 */
export function HeraldLogo({ size = 28, variant = 'email' }: { size?: number; variant?: RouteTheme }) {
  const { token } = theme.useToken();
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
      data-logo={variant}
    >
      <rect width="64" height="64" rx="14" fill={token.colorPrimary} />
      {variant === 'email' ? (
        <>
          <path d="M14 22l18 12 18-12v20a4 4 0 0 1-4 4H18a4 4 0 0 1-4-4z" fill="#fff" />
          <path d="M14 20a4 4 0 0 1 4-4h28a4 4 0 0 1 4 4L32 32z" fill="#fff" fillOpacity="0.7" />
        </>
      ) : (
        <>
          <path
            d="M14 20a6 6 0 0 1 6-6h24a6 6 0 0 1 6 6v16a6 6 0 0 1-6 6H28l-9 8v-8a6 6 0 0 1-5-6z"
            fill="#fff"
          />
          <circle cx="24" cy="28" r="3" fill={token.colorPrimary} />
          <circle cx="32" cy="28" r="3" fill={token.colorPrimary} />
          <circle cx="40" cy="28" r="3" fill={token.colorPrimary} />
        </>
      )}
    </svg>
  );
}
