import {
  $create,
  $getDocument,
  DecoratorNode,
  type DOMConversionOutput,
  type DOMExportOutput,
  type LexicalNode,
  type SerializedLexicalNode,
  type Spread,
} from 'lexical';
import type { ReactNode } from 'react';

/** The JSON of an image node (the editor's history and copy-paste use it). */
export type SerializedImageNode = Spread<{ src: string; alt: string; width: string | null; height: string | null }, SerializedLexicalNode>;

/** An inline image given by its URL (templates link images; they are not uploaded into the body). */
export class ImageNode extends DecoratorNode<ReactNode> {
  __src = '';
  __alt = '';
  __width: string | null = null;
  __height: string | null = null;

  $config() {
    return this.config('template-image', {
      extends: DecoratorNode,
      importDOM: {
        img: () => ({ conversion: $convertImageElement, priority: 0 }),
      },
    });
  }

  afterCloneFrom(previous: this): void {
    super.afterCloneFrom(previous);
    this.__src = previous.__src;
    this.__alt = previous.__alt;
    this.__width = previous.__width;
    this.__height = previous.__height;
  }

  exportJSON(): SerializedImageNode {
    return { ...super.exportJSON(), src: this.getSrc(), alt: this.getAlt(), width: this.getLatest().__width, height: this.getLatest().__height };
  }

  updateFromJSON(json: SerializedImageNode): this {
    return super.updateFromJSON(json).setImage({ src: json.src, alt: json.alt, width: json.width, height: json.height });
  }

  getSrc(): string {
    return this.getLatest().__src;
  }

  getAlt(): string {
    return this.getLatest().__alt;
  }

  /** Sets the image's attributes (only the ones given). */
  setImage(patch: { src?: string; alt?: string; width?: string | null; height?: string | null }): this {
    const self = this.getWritable();
    if (patch.src !== undefined) self.__src = patch.src;
    if (patch.alt !== undefined) self.__alt = patch.alt;
    if (patch.width !== undefined) self.__width = patch.width;
    if (patch.height !== undefined) self.__height = patch.height;
    return self;
  }

  isInline(): true {
    return true;
  }

  createDOM(): HTMLElement {
    return $getDocument().createElement('span');
  }

  updateDOM(): false {
    return false;
  }

  exportDOM(): DOMExportOutput {
    const img = $getDocument().createElement('img');
    const self = this.getLatest();
    img.setAttribute('src', self.__src);
    if (self.__alt) img.setAttribute('alt', self.__alt);
    if (self.__width) img.setAttribute('width', self.__width);
    if (self.__height) img.setAttribute('height', self.__height);
    return { element: img };
  }

  getTextContent(): string {
    return '';
  }

  decorate(): ReactNode {
    const self = this.getLatest();
    return (
      <img
        src={self.__src}
        alt={self.__alt}
        width={self.__width ?? undefined}
        height={self.__height ?? undefined}
        style={{ maxWidth: '100%' }}
        data-testid="rte-image-node"
      />
    );
  }
}

function $convertImageElement(element: HTMLElement): DOMConversionOutput {
  const src = element.getAttribute('src');
  if (!src) return { node: null };
  return {
    node: $createImageNode({ src, alt: element.getAttribute('alt') ?? '', width: element.getAttribute('width'), height: element.getAttribute('height') }),
  };
}

/** A new image node. */
export function $createImageNode(image: { src: string; alt?: string; width?: string | null; height?: string | null }): ImageNode {
  return $create(ImageNode).setImage({ alt: '', ...image });
}

/** True for an image node. */
export function $isImageNode(node: LexicalNode | null | undefined): node is ImageNode {
  return node instanceof ImageNode;
}
