import {
  MEMBER_PRESETS,
  type PermissionCatalogueEntry,
  type PermissionLevels,
  presetLevels,
} from '@herald/shared/member-presets';
import type { PermissionCode } from '@herald/shared/permissions';
import { Button, Flex, Radio, Table, Tooltip } from 'antd';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';

/**
 * A custom teammate's levels per function: full, read or none, with the shared presets as quick
 * fills. Admin-only functions (teammates) cannot be set to full.
 */
export type GridLevel = 'full' | 'read' | 'none';
export type GridValue = Partial<Record<PermissionCode, GridLevel>>;

interface Props {
  catalogue: readonly PermissionCatalogueEntry[];
  value?: GridValue;
  onChange?: (value: GridValue) => void;
}

export function toGrid(levels: PermissionLevels): GridValue {
  return { ...levels };
}

export function PermissionGrid({ catalogue, value = {}, onChange }: Props) {
  const { t } = useTranslation();
  const set = (code: PermissionCode, level: GridLevel) => onChange?.({ ...value, [code]: level });

  return (
    <Flex vertical gap="small" className="permission-grid">
      <Flex gap="small" align="center">
        <span>{t('members.presets')}</span>
        {MEMBER_PRESETS.map((preset) => (
          <Button key={preset} size="small" onClick={() => onChange?.(toGrid(presetLevels([preset])))}>
            {t(`members.preset.${preset}`)}
          </Button>
        ))}
      </Flex>
      <Table<PermissionCatalogueEntry>
        rowKey="code"
        size="small"
        pagination={false}
        dataSource={[...catalogue]}
        columns={[
          { title: t('members.groupColumn'), render: (_, e) => t(`members.group.${e.group}`) },
          { title: t('members.function'), render: (_, e) => t(e.nameKey as ParseKeys) },
          {
            title: t('members.levelColumn'),
            render: (_, e) => (
              <Radio.Group
                value={value[e.code] ?? 'none'}
                onChange={(event) => set(e.code, event.target.value as GridLevel)}
                data-code={e.code}
                className={`permission-level-${e.code}`}
              >
                <Tooltip title={e.adminOnly ? t('members.adminOnlyHint') : undefined}>
                  <Radio value="full" disabled={e.adminOnly}>
                    {t('members.level.full')}
                  </Radio>
                </Tooltip>
                <Radio value="read">{t('members.level.read')}</Radio>
                <Radio value="none">{t('members.level.none')}</Radio>
              </Radio.Group>
            ),
          },
        ]}
      />
    </Flex>
  );
}
