import { Button, Flex, Result } from 'antd';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goHome = (event: MouseEvent) => {
    event.preventDefault();
    void navigate('/');
  };
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <Result
        status="404"
        title="404"
        subTitle={t('notFound.description')}
        extra={
          <Button type="primary" href="/" onClick={goHome}>
            {t('common.backHome')}
          </Button>
        }
      />
    </Flex>
  );
}
