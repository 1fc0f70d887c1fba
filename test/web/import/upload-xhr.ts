/** The upload goes through XMLHttpRequest (for its progress): a stand-in that stores the file and answers its key. */
export class UploadXhr {
  upload = { onprogress: null };
  status = 0;
  responseText = '';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open() {}
  setRequestHeader() {}
  getAllResponseHeaders() {
    return 'content-type: application/json\r\n';
  }
  send() {
    setTimeout(() => {
      this.status = 201;
      this.responseText = JSON.stringify({ data: { file_key: 'orgs/1/imports/k.csv', file_name: 'upload.csv', file_size: 24 } });
      this.onload?.();
    }, 0);
  }
}
