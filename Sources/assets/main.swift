import AssetsCLI

AssetsCLI.main()
