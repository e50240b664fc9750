import { Input, Space } from 'antd';

/** The browser's picker takes #rrggbb only: a #rgb value is widened, anything else shows black. */
function pickerValue(value: string | undefined): string {
  if (!value) return '#000000';
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  return short
    ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase()
    : '#000000';
}

/**
 * A colour as the shared schema takes it (#rgb / #rrggbb): a picker, and the hex text beside it
 * for people who have their brand's colour codes at hand.
 */
export function ColourField({
  value,
  onChange,
  id,
}: {
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
}) {
  return (
    <Space.Compact>
      <input
        type="color"
        aria-label={id}
        value={pickerValue(value)}
        onChange={(event) => onChange?.(event.target.value)}
        style={{ width: 40, height: 32, padding: 2, border: '1px solid #d9d9d9', borderRadius: 6 }}
      />
      <Input
        id={id}
        className="colour-hex"
        value={value}
        maxLength={7}
        style={{ width: 110 }}
        onChange={(event) => onChange?.(event.target.value.trim())}
      />
    </Space.Compact>
  );
}
