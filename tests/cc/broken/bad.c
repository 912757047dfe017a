int
bad(void)
{
	return 1
}
