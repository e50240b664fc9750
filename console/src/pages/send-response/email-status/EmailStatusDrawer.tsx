import { Descriptions, Drawer, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { EmailStatusRow, SendLogEntry } from '../../../api/email-status.api.ts';
import { EmailStatusTag, useReasonText } from './EmailStatusTag.tsx';
import { when } from './email-status-time.ts';

const COLORS: Record<string, string> = {
  request: 'blue',
  delivered: 'green',
  deferred: 'orange',
  held: 'gray',
  invalid: 'red',
  soft_bounce: 'red',
};

/** One recipient's details and its send log as a timeline, the request first. */
export function EmailStatusDrawer({ row, onClose }: { row: EmailStatusRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const reasonText = useReasonText();
  const event = (e: SendLogEntry) =>
    t(`emailStatus.events.${e.event}` as 'emailStatus.events.request', { defaultValue: e.event });

  return (
    <Drawer
      open={row !== null}
      onClose={onClose}
      title={t('emailStatus.drawerTitle')}
      size="large"
      className="email-status-drawer"
    >
      {row && (
        <>
          <Descriptions column={1} size="small" bordered style={{ marginBottom: 24 }}>
            <Descriptions.Item label={t('emailStatus.email')}>{row.recipient}</Descriptions.Item>
            <Descriptions.Item label={t('emailStatus.emailId')}>
              <Typography.Text copyable>{row.emailId}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('emailStatus.status')}>
              <EmailStatusTag status={row.status} />
              {row.subStatus ? <Tag>{row.subStatus}</Tag> : null}
            </Descriptions.Item>
            <Descriptions.Item label={t('emailStatus.reason')}>{reasonText(row.reason)}</Descriptions.Item>
            <Descriptions.Item label={t('emailStatus.lastReply')}>{row.lastReply ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('emailStatus.subject')}>{row.subject}</Descriptions.Item>
            <Descriptions.Item label={t('emailStatus.from')}>{row.from}</Descriptions.Item>
            <Descriptions.Item label={t('emailStatus.apiUser')}>{row.apiUser ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('emailStatus.requestTime')}>
              {when(row.requestTime)}
            </Descriptions.Item>
            <Descriptions.Item label={t('emailStatus.modifiedTime')}>
              {when(row.modifiedTime)}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>{t('emailStatus.sendLog')}</Typography.Title>
          <Timeline
            className="email-status-send-log"
            items={row.sendLog.map((e) => ({
              color: COLORS[e.event] ?? 'gray',
              content: (
                <div className="send-log-entry">
                  <Typography.Text strong>{event(e)}</Typography.Text>{' '}
                  <Typography.Text type="secondary">
                    {when(e.at)}
                    {e.attempt > 0 ? ` · ${t('emailStatus.attempt', { n: e.attempt })}` : ''}
                  </Typography.Text>
                  {e.reply && <div className="send-log-reply">{e.reply}</div>}
                  {!e.reply && e.reason && <div>{reasonText(e.reason)}</div>}
                  {e.mxHost && (
                    <Typography.Text type="secondary">
                      {t('emailStatus.mx', { host: e.mxHost, ip: e.mxIp ?? '' })}
                      {e.tls ? ` · ${t('emailStatus.tls')}` : ''}
                    </Typography.Text>
                  )}
                </div>
              ),
            }))}
          />
        </>
      )}
    </Drawer>
  );
}
