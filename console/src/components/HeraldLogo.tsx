import { theme } from 'antd';

/** The Herald mark: an envelope with a message bubble, drawn in the theme's primary colour. */
export function HeraldLogo({ size = 28 }: { size?: number }) {
  const { token } = theme.useToken();
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill={token.colorPrimary} />
      <path d="M14 22l18 12 18-12v20a4 4 0 0 1-4 4H18a4 4 0 0 1-4-4z" fill="#fff" />
      <path d="M14 20a4 4 0 0 1 4-4h28a4 4 0 0 1 4 4L32 32z" fill="#fff" fillOpacity="0.7" />
    </svg>
  );
}
