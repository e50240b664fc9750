import { ColorPicker, Input, Space } from 'antd';

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
      <ColorPicker
        disabledAlpha
        value={value && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(value) ? value : undefined}
        onChange={(color) => onChange?.(color.toHexString())}
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
