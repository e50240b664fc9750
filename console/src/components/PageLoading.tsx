import { Flex, Spin } from 'antd';

/** Shown while the first screen's chunk loads. */
export function PageLoading() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: '60vh' }}>
      <Spin size="large" delay={200} />
    </Flex>
  );
}
