/** The SMS part counter lives in the shared package (the console's counter uses the same one). */
export * from '@herald/shared/sms/sms-parts';
