-- The twenty notification types under their stable ids (src/constants/notifications.ts), as the directory's
-- migrations leave them.
INSERT INTO `notification_types` (`id`, `key`, `description`, `created_at`, `updated_at`) VALUES
	('0e952d6f-6fa3-4c3a-acd4-2ac13782eed6', 'call_partner_once_per_year', 'Partner have not had an attempted call logged in the past year', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('7c9c8ce5-5c38-4d2b-a4bf-0f89b600966a', 'larger_gift', 'Partner gave a larger gift than commitment', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('284ab57b-d33a-40ab-8915-70a32c3d0332', 'long_time_frame_gift', 'Partner gave with a commitment of semi-annual or longer', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('14dc3f90-0f5c-41fa-b699-1e3e528c60e9', 'missing_address_in_newsletter', 'Contact is on the physical newsletter but has no mailing address', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('e39c212c-bbbb-4fef-800d-06a651ad1cab', 'missing_email_in_newsletter', 'Contact is on the email newsletter but has no people with a valid email address', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('ff4dbad9-7136-41be-a087-0027c1e3a1dc', 'new_form_subscriber', 'New contact added from a subscription form', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('9cc17612-960a-46f0-9a0b-f90d87d75e10', 'new_form_subscriber_existing_contact', 'Existing contact signed up through a subscription form', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('0af09878-8bc9-4325-8495-f7397d5c233e', 'new_partner_duplicate_merged', 'New partner added and merged with a duplicate contact', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('d61b7881-0f38-45f9-940d-82e659d593e1', 'new_partner_duplicate_not_merged', 'New partner added but a possible duplicate was not merged', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('ce74eaaf-6258-42ab-ae98-2807b5251175', 'new_partner_no_duplicate', 'New partner added with no duplicate found', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('54e07cac-65c1-4ae4-a856-2b61b62c4262', 'recontinuing_gift', 'Partner recontinued giving', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('971ffd97-9b91-443d-9a20-fe96d5527bd7', 'remind_partner_in_advance', 'Partner''s expected donation is one month away', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('3f99d982-8ac1-44bc-b729-636d5fc75da4', 'smaller_gift', 'Partner gave less than commitment', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('bb280f24-4061-4374-b067-cc56e177e81a', 'special_gift', 'Partner gave a special gift', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('cfac89fa-20d8-410a-9910-213433528637', 'started_giving', 'Partner started giving', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('284ca201-922a-4c31-91f8-f3662e06482c', 'stopped_giving', 'Partner missed a gift', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('54c951d3-d758-487b-be20-335935a45890', 'thank_partner_once_per_year', 'Partner have not had a thank you note logged in the past year', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('f30bba40-0be8-48f3-a917-173b82e21e4b', 'upcoming_anniversary', 'There is an anniversary coming up', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('620827e0-4709-4d55-90a4-67e720be84d3', 'upcoming_birthday', 'There is a birthday coming up', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z'),
	('665440d0-4e7e-4bb7-8a37-e0cf9845d12e', 'new_donation_system_address', 'New address received from the donation system', '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z');
