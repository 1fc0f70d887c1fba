import type { ApiClient } from './api-client';

/** GETs `path` through the API client and hands the answer to the browser as a file named `fileName`. */
export async function downloadFile(client: ApiClient, path: string, fileName: string): Promise<void> {
  const url = URL.createObjectURL(await client.download({ path }));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
