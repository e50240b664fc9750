import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { type InputHTMLAttributes, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './TextInput.module.css';

type NativeProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'prefix' | 'value' | 'size'>;

interface TextInputProps extends NativeProps {
  value: string;
  onChange(value: string): void;
  prefix?: ReactNode;
  invalid?: boolean;
  /** A password field with a show/hide toggle. */
  password?: boolean;
}

/**
 * The text box of the account screens, drawn to match antd's large Input. antd's Input brings
 * its form context and text-area machinery (about 30 KB gzipped) into /login, whose first load
 * has a budget; this is a plain input in a styled box.
 */
export function TextInput({ prefix, invalid, password, onChange, type, ...rest }: TextInputProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <span className={invalid ? `${styles.box} ${styles.error}` : styles.box}>
      {prefix && <span className={styles.affix}>{prefix}</span>}
      <input
        {...rest}
        type={password ? (visible ? 'text' : 'password') : (type ?? 'text')}
        aria-invalid={invalid || undefined}
        className={styles.input}
        onChange={(event) => onChange(event.target.value)}
      />
      {password && (
        <button
          type="button"
          className={styles.toggle}
          aria-label={visible ? t('auth.hidePassword') : t('auth.showPassword')}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? <EyeOutlined /> : <EyeInvisibleOutlined />}
        </button>
      )}
    </span>
  );
}
