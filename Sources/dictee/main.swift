import DicteeCLI

DicteeCLI.main()
