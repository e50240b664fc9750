/** /sendResponse/queueStatus shows the same queue monitor as /sendRelative/queue. */
export { default } from '../send-relative/SendQueuePage.tsx';
