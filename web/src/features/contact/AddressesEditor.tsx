import { ActionIcon, Button, Flex, Group, Input, NativeSelect, Stack } from '@mantine/core';
import { ADDRESS_TYPES, type AddressType } from '@shared/address';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { moveItem, SortableList } from '../../components/form/SortableList';
import type { CustomFieldProps } from '../../components/form/types';
import { AddressValueInput } from './AddressValueInput';
import { newAddressDraft, type AddressDraft } from './contact-form';
import { fieldErrorText } from '../../lib/field-errors';

/**
 * A contact's addresses (spec 3 and 5): many, add and remove, drag to reorder; each a type (e-mail or phone,
 * locked once the address exists) and a value checked live in the type's format. Server messages land on
 * addresses.<i>.type and addresses.<i>.value.
 */
export function AddressesEditor({ value, onChange, errors, types = ADDRESS_TYPES }: CustomFieldProps & { types?: readonly string[] }) {
  const { t } = useTranslation();
  const addresses = Array.isArray(value) ? (value as AddressDraft[]) : [];
  // Moving or removing rows shifts indexes: every address message is cleared then.
  const allPaths = () => Object.keys(errors);
  const update = (index: number, patch: Partial<AddressDraft>, paths: string[]) =>
    onChange(
      addresses.map((address, i) => (i === index ? { ...address, ...patch } : address)),
      paths,
    );

  return (
    <Input.Wrapper label={t('contacts.fields.addresses')} withAsterisk error={fieldErrorText(t, errors.addresses)} data-testid="form-field-addresses">
      <Stack gap="xs" mt="xs">
        <SortableList
          items={addresses}
          keyOf={(address) => address.key}
          onMove={(from, to) => onChange(moveItem(addresses, from, to), allPaths())}
          dragLabel={t('list.drag')}
          testId="address-row"
          renderItem={(address, index) => (
            <Group gap="xs" wrap="nowrap" align="flex-start">
              {/* On a phone the type goes above the address, so the address gets the row's whole width. */}
              <Flex direction={{ base: 'column', sm: 'row' }} gap="xs" style={{ flex: 1, minWidth: 0 }}>
                <NativeSelect
                  w={{ base: '100%', sm: 130 }}
                  aria-label={t('audience.address.type')}
                  data-testid="address-type"
                  // An existing address keeps its type (spec 4: contact address type is locked once set).
                  disabled={Boolean(address.id)}
                  title={address.id ? t('contacts.typeLocked') : undefined}
                  value={address.type}
                  error={fieldErrorText(t, errors[`addresses.${index}.type`])}
                  onChange={(event) =>
                    update(index, { type: event.currentTarget.value as AddressType }, [`addresses.${index}.type`, `addresses.${index}.value`])
                  }
                  data={[
                    ...(address.type ? [] : [{ value: '', label: '' }]),
                    ...types.map((type) => ({ value: type, label: t(`audience.addressTypes.${type}`) })),
                  ]}
                />
                <div style={{ flex: 1, minWidth: 0 }}>
                  <AddressValueInput
                    type={address.type}
                    value={address.value}
                    testId="address-value"
                    serverError={fieldErrorText(t, errors[`addresses.${index}.value`]) ?? fieldErrorText(t, errors[`addresses.${index}.id`])}
                    onChange={(text) => update(index, { value: text }, [`addresses.${index}.value`, `addresses.${index}.id`])}
                  />
                </div>
              </Flex>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={4}
                aria-label={t('contacts.removeAddress')}
                title={t('contacts.removeAddress')}
                data-testid="address-remove"
                disabled={addresses.length < 2}
                onClick={() =>
                  onChange(
                    addresses.filter((_, i) => i !== index),
                    allPaths(),
                  )
                }
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          )}
        />
        <Group>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            data-testid="address-add"
            onClick={() => onChange([...addresses, newAddressDraft()], ['addresses'])}
          >
            {t('contacts.addAddress')}
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
